// Package lepantomap draws Lepanto 1571 games as one side sees them: the hex map, the
// counters in their wings' colours and the last step's action, inside render's frame.
package lepantomap

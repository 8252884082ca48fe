// Package medievalmap draws games of the medieval d10 ruleset (adjudicator/medieval): the
// open table seen from above, at scale, inside render's frame.
package medievalmap

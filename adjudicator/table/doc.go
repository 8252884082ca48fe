// Package table holds the exact geometry of an open wargames table: positions, headings, base
// rectangles, arcs, ranges, lines of fire, contact, movement paths, wind and table edges, in
// integer units (1/100 inch, whole degrees) so that every machine computes the same bytes.
//
// Conventions (the rulesets cite these):
//
//   - Lengths are Len, hundredths of an inch. The table's origin is its south-west corner; X
//     grows east (right on the map), Y grows north (up the map).
//   - Headings and wind directions are whole compass degrees 0..359: 0 north, 90 east,
//     clockwise. A wind's direction is where it blows FROM.
//   - Sine and cosine are a fixed table of whole degrees scaled by Scale (1,000,000), read by
//     quadrant so that sin(-h) = -sin(h) and sin(h+90) = cos(h) hold exactly. Every division
//     rounds half away from zero, so a configuration and its mirror image give mirrored
//     integers, and a move of d followed by a move of -d on the same heading returns to the
//     same point exactly.
//   - A base is a rectangle of Length (along the heading) and Beam (across), centred on its
//     pose's position; its four corners are rounded to the unit and every later question
//     (arcs, ranges, contact, lines of fire) is answered exactly on those integer corners.
//   - Coordinates must lie within ±MaxCoord and base sides within MinSide..MaxSide (Pose.Valid,
//     Base.Valid); inside those bounds no product overflows (ranges use 128-bit products).
//
// No floating point is used anywhere in the package; tests check the sine table with
// integer identities only.
package table

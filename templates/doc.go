// Package templates holds every mail navarch writes, as embedded text and HTML templates.
//
// Each kind of mail has a text template (the text/plain part, which reads well alone) and an
// HTML one (the alternative part); HTML escapes everything, so nothing a player wrote can
// inject markup. Times are shown in UTC and in the recipient's own zone. Every mail ends with
// a block that tools can read: game, turn, activation, deadline and the log's size and head.
package templates

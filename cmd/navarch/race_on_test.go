//go:build race

package main

// raceDetector is true when the tests run under the race detector, which slows a whole game
// drawn map by map some fifty times.
const raceDetector = true

// Package render will draw the PNG map snapshots of every ruleset (issue "Maps and reports").
package render

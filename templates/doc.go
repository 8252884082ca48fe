// Package templates will hold the embedded report and reply templates (issue "Maps and
// reports").
package templates

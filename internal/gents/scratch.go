package gents

// Scratch is what npm writes into the package's directory (see
// generate.Emitter.Scratch): node_modules/ after an npm install there, and
// the tarball of npm pack. Not dist/: that is where the package's compiled
// JavaScript goes, which errgen generates and checks like any of its files.
var Scratch = []string{
	"node_modules/",
	"*.tgz",
}

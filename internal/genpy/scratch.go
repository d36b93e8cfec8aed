package genpy

// Scratch is what Python's build tools and tools run by hand write into the
// package's directory (see generate.Emitter.Scratch): setuptools' build/,
// dist/ and *.egg-info/ (another backend's, or a pyproject edited by hand:
// errgen's flit_core writes nothing there), bytecode caches, a virtual
// environment, and the caches of type checkers, linters and test runners.
var Scratch = []string{
	"build/",
	"dist/",
	"*.egg-info/",
	"__pycache__/",
	".venv/",
	".mypy_cache/",
	".pytest_cache/",
	".ruff_cache/",
}

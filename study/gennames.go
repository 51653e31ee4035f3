package study

import "github.com/graphalloc/graphalloc/graphgen"

// GenNames decides where the vertex names of a graph file (names, nil for
// none; the file is path) go when `graphalloc gen` writes it in format to
// output: an edge list keeps them (keep), a Matrix Market file writes them
// to namesFile beside it unless they are its indices 1..n already, and the
// other formats drop them. noBeside: the output has no file beside it
// (stdout, a device). exists reports whether a file exists, for a names
// file left from another graph. warnings are for the user, one line each.
func GenNames(names []string, format, output, path string, noBeside bool, exists func(string) bool) (keep []string, namesFile string, warnings []string) {
	switch {
	case names == nil:
	case format == "mtx" && graphgen.IsIndices(names, 1):
	case format == "mtx" && noBeside:
		warnings = append(warnings, path+": Matrix Market numbers the vertices 1..n, and their names go to a file beside the output: give -o FILE to get FILE.names")
	case format == "mtx":
		namesFile = graphgen.NamesPath(output)
	case format != "edgelist":
		warnings = append(warnings, path+": "+format+" numbers the vertices 0..n-1 and drops the file's vertex names (edgelist keeps them, mtx writes them beside)")
	}
	if format == "mtx" && namesFile == "" && !noBeside && exists(graphgen.NamesPath(output)) {
		warnings = append(warnings, graphgen.NamesPath(output)+" is left from another graph (this one's vertices have no names): delete it")
	}
	if format == "edgelist" {
		keep = names
	}
	return keep, namesFile, warnings
}

package graphgen

// Every package of the module imports graphgen, so this import stops the
// build of any of them on a platform with a 32-bit int, with one clear
// error (see package need64).
import _ "github.com/graphalloc/graphalloc/internal/need64"

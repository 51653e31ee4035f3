package results

import (
	"github.com/graphalloc/graphalloc/alloc"
)

// DynamicConfig is the config of the file of c, a run with deletions,
// from head, the config of the run without: c's deletion model (for a
// sequence del, --delete as given, which names its file or masking
// spec), its steps, and its initial balls.
func DynamicConfig(c alloc.Dynamic, head Config, del string) Config {
	head.Delete, head.Steps, head.M = c.Del.String(), c.Steps, c.M
	if c.Del.Model == alloc.DeleteSequence {
		head.Delete = del
	}
	return head
}

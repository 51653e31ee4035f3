package study_test

import (
	"context"
	"fmt"

	"github.com/graphalloc/graphalloc/study"
)

// Run a study from a program, as `graphalloc study reachability --tiny`
// does: the report holds the tables, the findings and the figure.
func ExampleStudy_Run() {
	s, err := study.Lookup("reachability")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := s.Run(context.Background(), s.Params(study.SizeTiny), study.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	coef := rep.Tables[1]
	fmt.Println(coef.Rows[1][0], "=", coef.Rows[1][1])
	fmt.Println(rep.Findings[0])
	// Output:
	// cycle C6 = 1 + 2p + 2p^2 + 2p^3 + 2p^4 + 2p^5 − 5p^6
	// the derivative characterisation holds in every example: the first non-zero EV^(k)(G; 1) is at k = λ (path P5 (end) 1, cycle C6 2, bowtie (two triangles) 2, complete K4 3, complete K5 4, Petersen 3)
}

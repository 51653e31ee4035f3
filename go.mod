module github.com/graphalloc/graphalloc

go 1.26

require (
	github.com/spf13/pflag v1.1.0
	github.com/yourbasic/graph v0.0.0-20210606180040-8ecfec1c2869
	gonum.org/v1/gonum v0.17.0
)

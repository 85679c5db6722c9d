module github.com/wmc/wm

go 1.19

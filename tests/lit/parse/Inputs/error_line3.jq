# A program over three lines with a syntax error on the last one.
.spec.replicatedJobs[]
| .replicas
| )

// Placeholder grammar (replaced by the jq front end).
grammar Jq;
program : pipe EOF ;
pipe : '.' ;
WS : [ \t\r\n]+ -> skip ;

module perfreport/tests/tools/vegeta_gob

go 1.19

# Bad input and bad usage: clear messages, exit codes, and a store left as it was.
sh_ "\$PR 2>/dev/null"
pr --version
pr nosuchcommand
pr ingest
pr ingest --tag novalue x
pr ingest --format nosuch x
pr ingest does-not-exist.bin
printf 'hello, world\n' > text.txt
pr ingest text.txt
no_run_left
pr ingest --quiet "$DATA/native/bench3k.prf"
pr ingest "$DATA/native/bench3k.prf"
cat "$DATA/native/bench3k.prf" "$DATA/native/bench3k.prf" | head -c 35000 > cut.prf
pr ingest cut.prf
cp "$DATA/native/bench3k.prf" corrupt.prf
printf 'X' | dd of=corrupt.prf bs=1 seek=9000 conv=notrunc 2>/dev/null
pr ingest --name bench3k corrupt.prf
pr runs
pr summary nosuchrun
pr summary --percentiles 50,abc
pr summary --by nothing
pr export --format xml 1

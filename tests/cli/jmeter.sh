# JMeter JTL files: CSV variants and XML, per-label statistics, JMeter's statistics.json layout.
pr ingest "$DATA/jmeter/csv-default.jtl" "$DATA/jmeter/connrefused.jtl"
pr ingest "$DATA/jmeter/csv-semicolon.jtl" "$DATA/jmeter/csv-quoted.jtl" "$DATA/jmeter/xml.jtl"
pr runs
pr summary --by label csv-default
pr summary connrefused
# the Apdex line names the threshold it was computed with (it said "T 500 ms" whatever --apdex-t was)
sh_ "\$PR summary --apdex-t 200ms csv-default | grep apdex"
pr summary --format jmeter csv-default
pr summary --format jmeter --percentiles jmeter --apdex-t 5 csv-default
pr summary --by label xml
head -c 20000 "$DATA/jmeter/csv-default.jtl" > cut.jtl
pr ingest cut.jtl
# a JTL with a second run appended 2.4 h later: one warning (not one per row after the jump);
# split, the second run keeps its first sample's label and thread (they were read from the
# first run after the split had handed it to the store)
printf 'timeStamp,elapsed,label,responseCode,responseMessage,threadName,success,bytes\n1796051469000,12,first,200,OK,t1,true,10\n1796051470000,14,first,200,OK,t1,true,10\n1796060000000,20,second,500,Err,t2,false,10\n1796060001000,22,second,200,OK,t2,true,10\n' > gap.jtl
pr ingest --name kept --no-split-runs gap.jtl
pr ingest --force --name split --split-runs gap.jtl
pr summary --by label --no-findings split#2
# a public JTL that JMeter -l appended six sessions to (tests/data/jmeter/README.md): sessions of
# a few minutes, samples about 0.1-0.5 s apart, 0.5 to 6.2 h between them. Each is a run of its
# own by default (a gap of over an hour, or of 10 min and 1000 times the session's mean
# spacing), and the ingest says where; kept together (--no-split-runs) the run's rate is over
# its 15.3 h, and its summary says so
pr ingest "$DATA/jmeter/sessions.jtl"
pr runs sessions sessions#2 sessions#6
pr summary --no-findings sessions
pr ingest --force --no-split-runs --name all-sessions "$DATA/jmeter/sessions.jtl"
sh_ "\$PR summary --no-findings all-sessions | grep -E '^  (requests|duration|rate|note) '"
# two sessions 1450 h apart (SUPERCOMPTEAM/SCT_Jmeter, truncated): kept together the run read
# "duration 1451 h, rate 0.00/s"; split, the second session is its own run at 156.40/s
pr ingest "$DATA/jmeter/two_sessions_1450h.jtl"
sh_ "\$PR summary --no-findings two_sessions_1450h#2 | grep -E '^  (requests|duration|rate) '"
pr ingest --force --no-split-runs --name together "$DATA/jmeter/two_sessions_1450h.jtl"
sh_ "\$PR summary --no-findings together | grep -E '^  (requests|duration|rate|note) '"

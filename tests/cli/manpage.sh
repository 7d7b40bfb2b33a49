# The man page is the binary's own --help texts (tests/tools/manpage.sh, `make man`): it lists
# every command, option and input format the binary has, or this case fails.
sh_ "sh \$root/tests/tools/manpage.sh \$PERFREPORT_BIN \$root/docs/perfreport.1 | diff \$root/docs/perfreport.1 - && echo docs/perfreport.1 is current"
sh_ "grep -c '^.SS ' \$root/docs/perfreport.1"
sh_ "sed 's/[\\\\]//g' \$root/docs/perfreport.1 | grep -o -w -E 'k6-json|k6-csv|gatling|locust|artillery|autocannon|hdr-hlog|findings' | sort -u"

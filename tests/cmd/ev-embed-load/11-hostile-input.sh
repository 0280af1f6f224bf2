exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
try() { ev-embed-load --db kb.db --index kb.faiss; echo "exit $?"; }
printf "{\"id\":\"d1:s1:0\",\"vec" | try
head -c 3000 /dev/urandom | tr -d "\n" | try 2>/dev/null
awk "BEGIN { for (i = 0; i < 5000; i++) printf \"[\"; print \"\" }" | try
printf "{\"id\":\"d1\000\",\"vector\":[1]}\n" | try
printf "{\"id\":\"\377\",\"vector\":[1]}\n" | try
awk "BEGIN { printf \"{\\\"id\\\":\\\"d1:s1:0\\\",\\\"model\\\":\\\"m\\\",\\\"vector\\\":[\"; for (i = 0; i < 70000; i++) printf \"0,\"; print \"1]}\" }" | try
printf "[1,2]\n" | try
echo "{\"id\":\"d1:s1:0\",\"vector\":[1,0]}" | try
ls

# --default's lanes are held to the plan's lane names (1 to 31 lowercase
# letters, digits, '_' or '-') and to 16 lanes, as --known's to 16: a list past 16 was
# cut there unsaid, and a name with a space or a quote was written into
# every query's lanes for a lane nobody runs.
echo '"q"' >q.jsonl
ev-route --default 'text,vec tor' q.jsonl
echo "exit $?"
ev-route --default a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q q.jsonl
echo "exit $?"
ev-route --default text --known a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,text q.jsonl
echo "exit $?"
echo "-- sixteen lanes are fine:"
ev-route --default a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p q.jsonl | jq -c '.lanes | length'
echo "-- the plan's routing.default is used, not --default:"
echo 'routing: {default: [text]}' >plan.yaml
ev-route --config plan.yaml --default 'vec tor' q.jsonl | jq -c .lanes

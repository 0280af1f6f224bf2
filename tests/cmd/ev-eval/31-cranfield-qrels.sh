# The real Cranfield judgements (CRLF lines, trailing blanks, codes 1-4 and -1):
# read raw with --binary --level -1 (every listed pair relevant, as the
# reference figures count them), a run listing each query's judged documents in
# file order is perfect: 225 queries, 1837 relevant, every figure 1 but P@10
# (queries with fewer than 10 relevant cannot fill the first 10).  The graded
# default would count code -1 as not relevant and code 4 as the best: shown
# only to be different.
. "$SKIPLIB"
q=$SHARED/data/cranfield/cranqrel
need_file "$q" "the Cranfield judgements"
LC_ALL=C awk '{ sub(/\r$/, ""); n[$1]++;
	printf "{\"query_id\":\"%s\",\"doc_id\":\"%s\",\"rank\":%d}\n", $1, $2, n[$1] }' "$q" >run
ev-eval --qrels "$q" --binary --level -1 run
LC_ALL=C awk '{ sub(/\r$/, "") } NF >= 2 { print $1, $2, 1 }' "$q" >qrels.binary
ev-eval --qrels qrels.binary run
ev-eval --qrels "$q" run | cut -d, -f1-3

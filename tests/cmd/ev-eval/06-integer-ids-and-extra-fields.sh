# query_id and doc_id may be integers (compared as their decimal text), other
# fields are ignored, qrels may have CRLF line ends, blank lines and # comments.
printf "# cranfield-like\r\n1 184 1\r\n\r\n1 29 1\r\n2 12 1\r\n" >qrels
printf "%s\n" "{\"query_id\":1,\"doc_id\":29,\"rank\":1,\"signals\":{\"fts_score\":3},\"evidence\":[]}" \
    "{\"query_id\":\"2\",\"doc_id\":\"12\",\"rank\":1,\"score\":null}" >run
ev-eval --qrels qrels run

"""Query understanding, by job; `hindsight.retrieval.query_parser.parse_query` is the entry point."""

/**
 * Queries are cut to this many characters and words: a search box holds a few words, not an essay. Apart
 * from the tokenizer (tokenize.ts, server only) so that the search form and addresses can use them.
 */
export const MAX_QUERY_CHARS = 200;
export const MAX_QUERY_WORDS = 12;

// PLACEHOLDER: replaced by the strings work (folding, LIKE, MATCHES, string comparators).

// purpose: The documents the graph holds, with the title and issue date an amending text may name them by (the loader resolves "Luật Sở hữu trí tuệ" against these, so load order never matters); title is null for documents read without one.
// mode: read
// returns: id, title, issue_date
MATCH (d:Document)
WHERE NOT d.id STARTS WITH 'PD-'
RETURN d.id AS id, d.title AS title, d.issue_date AS issue_date
ORDER BY id

// purpose: Entity-linking candidates: full-text search over names and aliases, one Lucene query per mention.
// mode: read
// param mentions: list<map> -- {mention, lucene}
// param limit: int -- candidates per mention
// returns: mention, id, name, node_type, aliases, score, degree
UNWIND $mentions AS m
CALL db.index.fulltext.queryNodes('bioentity_search_text_fulltext', m.lucene, {limit: $limit})
YIELD node, score
RETURN m.mention AS mention, node.id AS id, node.name AS name, node.node_type AS node_type,
       coalesce(node.aliases, []) AS aliases, score, COUNT { (node)--() } AS degree

// purpose: Titles of passages by id (for citing evidence).
// mode: read
// param ids: list<string> -- passage ids
// returns: id, title
MATCH (p:SentenceNode) WHERE p.id IN $ids AND p:Passage
RETURN p.id AS id, p.title AS title
ORDER BY id

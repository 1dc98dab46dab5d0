// purpose: The ids of every loaded legal Document (Placeholders excluded), for operator commands that name documents.
// mode: read
// returns: id
MATCH (d:Document)
RETURN d.id AS id
ORDER BY id

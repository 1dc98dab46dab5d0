// purpose: Upsert biomedical entities by id, add their type label (a BioType value, validated in Python) and refresh the full-text search text.
// mode: write
// param rows: list<map> -- {id, name, label, node_type, source, source_id, aliases: list<string>}
// returns: count
UNWIND $rows AS row
MERGE (n:BioEntity {id: row.id})
ON CREATE SET n.name = row.name, n.node_type = row.node_type, n.source = row.source,
              n.source_id = row.source_id
SET n:$(row.label)
SET n.aliases = CASE WHEN size(row.aliases) = 0 THEN coalesce(n.aliases, [])
                     ELSE apoc.coll.toSet(coalesce(n.aliases, []) + row.aliases) END
SET n.search_text = apoc.text.join([n.name] + n.aliases, ' | ')
RETURN count(n) AS count

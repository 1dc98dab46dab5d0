// purpose: Re-home what amending texts wrote against a document they name by title only (doc_id '~<title slug>') onto the one loaded Document that carries that title (or that a codification names so): ids and doc_id rewritten, a placeholder merged into the real unit of the same id, citations relabelled. Runs first in derive, so load order never changes the graph; a title two loaded documents share is left alone, and so is a document issued after the text that wrote against its title.
// mode: write
// returns: count
// start from what waits for a title: one pass, not one per title, through the units' doc_id
// index and the placeholders (every legal node with a doc_id is one or the other), not a scan
// of every legal node
CALL () {
  MATCH (n:LegalUnit) WHERE n.doc_id STARTS WITH '~'
  RETURN n
  UNION
  MATCH (n:Placeholder) WHERE n.doc_id STARTS WITH '~'
  RETURN n
}
// the earliest issue date of a document that wrote against the title (versions and inserted
// units carry it as not_before): a text never amends a law enacted after it
WITH substring(n.doc_id, 1) AS slug, collect(n) AS pending, min(n.not_before) AS cited_on
CALL (slug, cited_on) {
  MATCH (d:Document) WHERE slug IN d.name_slugs
    AND (cited_on IS NULL OR d.issue_date IS NULL OR d.issue_date <= cited_on)
  RETURN d
  UNION
  // a name a codification gives beside the number of a loaded document
  MATCH (c:Document) WHERE c.cited_names IS NOT NULL
  UNWIND c.cited_names AS entry
  WITH split(entry, '|') AS parts
  WHERE parts[1] = slug
  MATCH (d:Document {id: parts[2]})
  WHERE cited_on IS NULL OR d.issue_date IS NULL OR d.issue_date <= cited_on
  RETURN d
}
WITH slug, pending, collect(DISTINCT d) AS docs
WHERE size(docs) = 1
WITH docs[0] AS d, '~' + slug AS key, pending
UNWIND pending AS n
WITH d, key, n, d.id + substring(n.id, size(key)) AS new_id
OPTIONAL MATCH (real:LegalNode {id: new_id})
CALL (n, real, new_id, d, key) {
  WITH n, real, new_id, d, key WHERE real IS NULL
  SET n.id = new_id, n.doc_id = d.id,
      n.inserted_after = CASE WHEN n.inserted_after STARTS WITH key
        THEN d.id + substring(n.inserted_after, size(key)) ELSE n.inserted_after END,
      n.citation = CASE WHEN n.pending_label IS NULL THEN n.citation
        ELSE replace(n.citation, n.pending_label, d.citation_label) END
  REMOVE n.pending_label
  RETURN 1 AS done
  UNION
  WITH n, real WHERE real IS NOT NULL
  WITH n, real, real:Placeholder AS was_placeholder
  CALL apoc.refactor.mergeNodes([real, n], {properties: 'discard', mergeRels: true})
  YIELD node
  CALL (node, was_placeholder) {
    WITH node WHERE NOT was_placeholder
    REMOVE node:Placeholder, node.kind
  }
  RETURN 1 AS done
}
RETURN count(*) AS count

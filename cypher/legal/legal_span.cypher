// purpose: How many legal documents are loaded and the earliest day one of them takes effect (its effective date, else its issue date), so that an empty search can say whether the graph is empty or nothing was in force at the date asked.
// mode: read
// returns: documents, first_day
MATCH (d:Document)
WHERE NOT d.id STARTS WITH 'PD-'
RETURN count(d) AS documents, min(coalesce(d.effective_date, d.issue_date)) AS first_day

"""``siftui audit``: what agents will see of a whole document store.

``document.py`` audits one document with the library's own loader, walk,
unreachable tail, hidden-text inspection and agents table (one JSON record);
``pool.py`` runs documents in bounded worker processes; ``cluster.py`` runs
them on a Dask cluster's workers, in the same bounded processes; ``store.py``
finds the documents and reads and appends the JSON Lines file; ``summary.py``
and ``html.py`` the summary as a terminal table and as a self-contained page.
"""

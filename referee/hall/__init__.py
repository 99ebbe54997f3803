"""Many tables, one hall: tables publish their record to an MQTT broker, a hub follows them all.

One concept a module: :mod:`~referee.hall.broker_url` (where the broker is, credentials never shown),
:mod:`~referee.hall.topics` (contract 6's topics), :mod:`~referee.hall.client` (a paho client set up
from a URL), :mod:`~referee.hall.publisher` (a table's side), :mod:`~referee.hall.hub_store` (the hub's
record), :mod:`~referee.hall.views` (what the hub shows of a table), :mod:`~referee.hall.receiver` (the
hub's side of the broker), :mod:`~referee.hall.web` (the hall page and the tables' read-only pages, with
:mod:`referee.web.fanout`'s server-sent events), :mod:`~referee.hall.command`
(the command line). Nothing here is imported by a table that does not publish.
"""

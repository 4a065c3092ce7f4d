/**
 * The load experiments: the tail latency of the demo's requests while it is scraped
 * (open-loop load, GC logs), and what share of the series and gzip segments change
 * between two scrapes of the demo under traffic.
 */
package io.github.leanscrape.load;

package io.github.leanscrape.exposition.direct;

/**
 * What an OpenMetrics scrape needs to write exemplars: the moment it reads them, against
 * which their retention is judged, and whether client_java would write them beyond
 * counters and buckets ({@code io.prometheus.exporter.exemplarsOnAllMetricTypes}, on in
 * Micrometer's and so Spring Boot's defaults): on {@code _count} and quantile lines.
 *
 * @param now the scrape's wall-clock time in milliseconds, as client_java's sampler reads
 * it
 * @param allMetricTypes whether {@code _count} and quantile lines carry exemplars
 * @author leanscrape
 */
record ExemplarScrape(long now, boolean allMetricTypes) {

}

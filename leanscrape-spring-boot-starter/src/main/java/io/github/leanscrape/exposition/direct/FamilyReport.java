package io.github.leanscrape.exposition.direct;

/**
 * One family in a {@link CardinalityReport}.
 *
 * @param name the family's Prometheus name
 * @param series its sample lines in the last full scrape
 * @param bytes the bytes it took, metadata included
 * @param renderer {@code direct}, or {@code reference} when the reference path wrote it
 * @author leanscrape
 */
public record FamilyReport(String name, long series, long bytes, String renderer) {

}

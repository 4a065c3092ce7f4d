package io.github.leanscrape.exposition;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * What makes two scrapes interchangeable: the same format and the same name filter. Such
 * scrapes share a rendering when they overlap, a cached body within its time to live, and
 * a size hint.
 *
 * @param format the format
 * @param includedNames the families to include, or {@code null} for all
 * @param gzip whether this is the compressed body
 * @author leanscrape
 */
public record ScrapeKind(PrometheusOutputFormat format, @Nullable Set<String> includedNames, boolean gzip) {

	/**
	 * Return the kind of the compressed body of this kind's scrapes.
	 * @return the compressed kind
	 */
	public ScrapeKind compressed() {
		return new ScrapeKind(this.format, this.includedNames, true);
	}

}

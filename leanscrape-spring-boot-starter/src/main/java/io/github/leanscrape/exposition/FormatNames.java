package io.github.leanscrape.exposition;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Short names of the scrape formats, for the starter's metrics and reports.
 *
 * @author leanscrape
 */
public final class FormatNames {

	private FormatNames() {
	}

	/**
	 * Return the short name of a format.
	 * @param format the format
	 * @return {@code text}, {@code openmetrics} or {@code protobuf}
	 */
	public static String of(PrometheusOutputFormat format) {
		return switch (format) {
			case CONTENT_TYPE_004 -> "text";
			case CONTENT_TYPE_OPENMETRICS_100 -> "openmetrics";
			case CONTENT_TYPE_PROTOBUF -> "protobuf";
		};
	}

}

package io.github.leanscrape.benchmark;

/**
 * What a benchmarked application runs beside its meters, as production services do.
 *
 * @author leanscrape
 */
enum ScrapeConfiguration {

	/**
	 * The meters alone.
	 */
	PLAIN,

	/**
	 * Tracing on: the registry has a span context, and every counter and timer holds an
	 * exemplar, which OpenMetrics scrapes write.
	 */
	TRACING,

	/**
	 * One small client_java collector registered in the Prometheus registry beside
	 * Micrometer's.
	 */
	FOREIGN,

	/**
	 * Created timestamps on in the text formats (client_java's
	 * {@code io.prometheus.exporter.includeCreatedTimestamps}, which a Spring Boot
	 * application sets in {@code management.prometheus.metrics.export.properties}).
	 */
	CREATED;

	/**
	 * Return the configuration a benchmark parameter names.
	 * @param name {@code plain}, {@code tracing}, {@code foreign} or {@code created}
	 * @return the configuration
	 */
	static ScrapeConfiguration of(String name) {
		return switch (name) {
			case "plain" -> PLAIN;
			case "tracing" -> TRACING;
			case "foreign" -> FOREIGN;
			case "created" -> CREATED;
			default -> throw new IllegalArgumentException("Unknown configuration '" + name + "'");
		};
	}

}

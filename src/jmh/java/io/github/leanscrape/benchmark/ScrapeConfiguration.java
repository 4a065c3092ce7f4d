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
	FOREIGN;

	/**
	 * Return the configuration a benchmark parameter names.
	 * @param name {@code plain}, {@code tracing} or {@code foreign}
	 * @return the configuration
	 */
	static ScrapeConfiguration of(String name) {
		return switch (name) {
			case "plain" -> PLAIN;
			case "tracing" -> TRACING;
			case "foreign" -> FOREIGN;
			default -> throw new IllegalArgumentException("Unknown configuration '" + name + "'");
		};
	}

}

package io.github.leanscrape.prometheus;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.leanscrape.demo.DemoMeters;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a scraping server stored of the demo application's known meters, read through its
 * Prometheus query API, and what it must have stored: the values the demo set.
 */
final class StoredDemoValues {

	private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(10);

	private final ScrapingServer server;

	StoredDemoValues(ScrapingServer server) {
		this.server = server;
	}

	/**
	 * Check that the server stored exactly the values of the demo's known counter, gauge,
	 * histogram and quantile, and that the target is up.
	 */
	void assertKnownValues() {
		assertThat(value("demo_known_events_total")).isEqualTo(DemoMeters.KNOWN_COUNTER_VALUE);
		assertThat(value("demo_known_level")).isEqualTo(DemoMeters.KNOWN_GAUGE_VALUE);
		assertThat(buckets()).isEqualTo(expectedBuckets());
		assertThat(quantile(DemoMeters.KNOWN_QUANTILE_PERCENTILE)).isEqualTo(DemoMeters.KNOWN_QUANTILE_VALUE);
		assertThat(value("up")).isEqualTo(1.0);
	}

	/**
	 * Return the one value a selector of the demo's job gives.
	 * @param metric the selector, without the job
	 * @return the value
	 */
	double value(String metric) {
		String selector = metric.contains("{") ? metric.replace("{", "{" + job() + ",") : metric + "{" + job() + "}";
		return value(this.server.awaitVector(selector, QUERY_TIMEOUT), metric);
	}

	/**
	 * Return the one value a query gives.
	 * @param promql the query
	 * @return the value
	 */
	double query(String promql) {
		return value(this.server.awaitVector(promql, QUERY_TIMEOUT), promql);
	}

	/**
	 * Run a query that gives one value until it gives the expected one: a scraping server
	 * makes new series searchable a moment after it stores them.
	 * @param promql the query
	 * @param expected the value to wait for
	 * @param timeout how long to wait
	 * @return the last value given
	 */
	double awaitQuery(String promql, double expected, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		double last = query(promql);
		while (last != expected && System.nanoTime() - deadline < 0) {
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			last = query(promql);
		}
		return last;
	}

	private static double value(JsonNode vector, String what) {
		assertThat(vector).as(what).hasSize(1);
		return sampleValue(vector.get(0));
	}

	private Map<Double, Double> buckets() {
		JsonNode vector = this.server.awaitVector("demo_known_sizes_bucket{" + job() + "}", QUERY_TIMEOUT);
		Map<Double, Double> buckets = new LinkedHashMap<>();
		for (JsonNode sample : vector) {
			// Compared as numbers: how "le" is spelled depends on the format scraped.
			buckets.put(parseFloat(sample.path("metric").path("le").asString()), sampleValue(sample));
		}
		return buckets;
	}

	private static Map<Double, Double> expectedBuckets() {
		double[] recordings = DemoMeters.knownHistogramRecordings();
		Map<Double, Double> expected = new LinkedHashMap<>();
		for (double boundary : DemoMeters.knownHistogramBoundaries()) {
			int count = 0;
			for (double value : recordings) {
				if (value <= boundary) {
					count++;
				}
			}
			expected.put(boundary, (double) count);
		}
		expected.put(Double.POSITIVE_INFINITY, (double) recordings.length);
		return expected;
	}

	private @Nullable Double quantile(double quantile) {
		JsonNode vector = this.server.awaitVector("demo_known_quantile{" + job() + "}", QUERY_TIMEOUT);
		for (JsonNode sample : vector) {
			if (parseFloat(sample.path("metric").path("quantile").asString()) == quantile) {
				return sampleValue(sample);
			}
		}
		return null;
	}

	private static String job() {
		return "job=\"" + ScrapingServer.JOB + "\"";
	}

	/**
	 * Return the value of an instant vector's sample, {@code [timestamp, "value"]}.
	 * @param sample the sample
	 * @return its value
	 */
	static double sampleValue(JsonNode sample) {
		return parseFloat(sample.path("value").get(1).asString());
	}

	/**
	 * Parse a number as Prometheus writes it: Go's float syntax, with {@code +Inf},
	 * {@code -Inf} and {@code NaN}.
	 * @param value the number
	 * @return its value
	 */
	static double parseFloat(String value) {
		return switch (value) {
			case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			case "NaN" -> Double.NaN;
			default -> Double.parseDouble(value);
		};
	}

}

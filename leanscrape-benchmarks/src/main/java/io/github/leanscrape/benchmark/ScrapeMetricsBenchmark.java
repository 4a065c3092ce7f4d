package io.github.leanscrape.benchmark;

import java.util.concurrent.TimeUnit;

import io.github.leanscrape.metrics.MicrometerSelfMetrics;
import io.github.leanscrape.serve.Outcome;
import io.github.leanscrape.support.StarterContext;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * What recording one scrape in the starter's own metrics costs: the counter of its format
 * and outcome, the duration timer, the body size summaries. Expected: nothing allocated,
 * every meter having been registered up front.
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ScrapeMetricsBenchmark {

	private MicrometerSelfMetrics metrics;

	private long duration;

	/**
	 * Register the starter's meters in a Prometheus meter registry, as in an application.
	 */
	@Setup
	public void setUp() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new FixedClock());
		this.metrics = StarterContext.start(registry, PrometheusConfig.DEFAULT, new Class<?>[0])
			.bean(MicrometerSelfMetrics.class);
	}

	/**
	 * Record one finished scrape.
	 * @return a value, so that nothing is optimized away
	 */
	@Benchmark
	public long recordOneScrape() {
		long duration = ++this.duration;
		this.metrics.scraped(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, Outcome.OK, duration * 1000,
				8_500_000, 900_000);
		return duration;
	}

}

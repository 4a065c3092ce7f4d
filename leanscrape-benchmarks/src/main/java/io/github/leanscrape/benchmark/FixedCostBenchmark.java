package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The fixed cost of a scrape: the starter's whole path but HTTP, as
 * {@link ScrapeBenchmark#leanscrape} runs it, on a registry of only 1,000 series, where
 * what every scrape costs whatever its size (the operation, the responder, the own
 * metrics, the buffers' bookkeeping) is most of what it allocates. Its own class, with
 * the series count fixed, so that the benchmark gate runs it beside
 * {@link ScrapeBenchmark} at 10,000 series in one JMH run.
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class FixedCostBenchmark {

	private static final int SERIES = 1000;

	/**
	 * The format: {@code text}, {@code openmetrics} or {@code protobuf}.
	 */
	@Param({ "text", "openmetrics", "protobuf" })
	public String format = "text";

	private final CountingSink sink = new CountingSink();

	private @Nullable LeanscrapeStarter starter;

	private PrometheusOutputFormat outputFormat = PrometheusOutputFormat.CONTENT_TYPE_004;

	/**
	 * Build the registry and the starter.
	 */
	@Setup(Level.Trial)
	public void setUp() {
		SyntheticRegistry registry = SyntheticRegistry.build(SERIES);
		// Every series formatted every time, as ScrapeBenchmark.
		this.starter = LeanscrapeStarter.create(registry.meterRegistry(), PrometheusConfig.DEFAULT,
				"leanscrape.reuse.enabled=false");
		this.outputFormat = ScrapeState.outputFormat(this.format);
	}

	/**
	 * One scrape through the starter's whole path but HTTP.
	 * @return the response
	 * @throws IOException never: the sink does not fail
	 */
	@Benchmark
	public Object leanscrape() throws IOException {
		LeanscrapeStarter starter = ScrapeState.nonNull(this.starter);
		return ScrapeBenchmark.scrapeWithStarter(starter.endpoint(), starter.responder(), this.outputFormat, this.sink);
	}

}

package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Properties;

import io.github.leanscrape.endpoint.PendingScrapeResource;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.ScrapeResponse;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.core.io.Resource;

/**
 * One synthetic registry and both endpoints over it: Spring Boot's own
 * {@link PrometheusScrapeEndpoint} and leanscrape's, built as their auto-configurations
 * build them.
 * <p>
 * Before anything is measured, the setup checks that the registry has exactly
 * {@link #seriesCount} series and that both endpoints answer with the same bytes: the
 * benchmarks compare two ways of producing one body. After the trial, it checks that
 * every body went back to the pool.
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
public class ScrapeState {

	/**
	 * Series in the registry; 1000000 runs with {@code -p seriesCount=1000000}.
	 */
	@Param({ "1000", "10000", "100000" })
	public int seriesCount;

	/**
	 * The format: {@code text} (0.0.4), {@code openmetrics} (1.0.0) or {@code protobuf}.
	 */
	@Param({ "text", "openmetrics", "protobuf" })
	public String format = "text";

	/**
	 * What runs beside the meters: {@code plain}, {@code tracing} (exemplars),
	 * {@code foreign} (a client_java collector) or {@code created} (created timestamps in
	 * the text formats).
	 */
	@Param({ "plain", "tracing", "foreign", "created" })
	public String configuration = "plain";

	@Nullable SyntheticRegistry registry;

	@Nullable PrometheusOutputFormat outputFormat;

	@Nullable Properties exporterProperties;

	@Nullable PrometheusScrapeEndpoint bootEndpoint;

	@Nullable LeanscrapeStarter leanscrape;

	final CountingSink sink = new CountingSink();

	/**
	 * Build the registry and the endpoints, and check that they agree.
	 * @throws IOException when counting the series fails
	 */
	@Setup(Level.Trial)
	public void setUp() throws IOException {
		SyntheticRegistry registry = SyntheticRegistry.build(this.seriesCount,
				ScrapeConfiguration.of(this.configuration));
		PrometheusOutputFormat outputFormat = outputFormat(this.format);
		// What Spring Boot passes (see PrometheusPropertiesConfigAdapter): its defaults
		// (exemplars on all metric types), plus the configuration's own.
		Properties exporterProperties = registry.config().prometheusProperties();
		PrometheusScrapeEndpoint bootEndpoint = new PrometheusScrapeEndpoint(registry.prometheusRegistry(),
				exporterProperties);
		// Every series formatted every time: a scrape with nothing to copy from the last
		// (ChangingScrapeBenchmark measures what reuse saves).
		LeanscrapeStarter leanscrape = LeanscrapeStarter.create(registry.meterRegistry(), registry.config(),
				"leanscrape.reuse.enabled=false");
		if (Boolean.parseBoolean(System.getProperty("leanscrape.benchmark.check", "true"))) {
			// Off only where Spring Boot's endpoint cannot scrape at all (1M series in a
			// 1 GB heap): the check itself runs it. Series are counted without
			// _created lines.
			assertSeriesCount(registry, PrometheusConfig.DEFAULT.prometheusProperties());
			assertSameBody(outputFormat, bootEndpoint, leanscrape);
		}
		this.registry = registry;
		this.outputFormat = outputFormat;
		this.exporterProperties = exporterProperties;
		this.bootEndpoint = bootEndpoint;
		this.leanscrape = leanscrape;
	}

	/**
	 * Check that no body is still holding pooled chunks.
	 */
	@TearDown(Level.Trial)
	public void tearDown() {
		long inUse = (this.leanscrape != null) ? this.leanscrape.pool().chunksInUse() : 0;
		if (inUse != 0) {
			throw new IllegalStateException(inUse + " chunks were never given back to the pool");
		}
	}

	/**
	 * Map the format parameter to Spring Boot's format.
	 * @param format {@code text}, {@code openmetrics} or {@code protobuf}
	 * @return the format
	 */
	static PrometheusOutputFormat outputFormat(String format) {
		return switch (format) {
			case "text" -> PrometheusOutputFormat.CONTENT_TYPE_004;
			case "openmetrics" -> PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;
			case "protobuf" -> PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF;
			default -> throw new IllegalArgumentException("Unknown format '" + format + "'");
		};
	}

	/**
	 * Count the sample lines of the text format: they are the series.
	 * @param registry the registry to scrape
	 * @param exporterProperties client_java's exporter properties, or {@code null} for
	 * its defaults
	 */
	private static void assertSeriesCount(SyntheticRegistry registry, @Nullable Properties exporterProperties)
			throws IOException {
		ExpositionFormats formats = ExpositionFormats.init((exporterProperties != null)
				? PrometheusPropertiesLoader.load(exporterProperties) : PrometheusPropertiesLoader.load());
		SampleLineCounter counter = new SampleLineCounter();
		formats.getPrometheusTextFormatWriter().write(counter, registry.prometheusRegistry().scrape());
		if (counter.samples != registry.seriesCount()) {
			throw new IllegalStateException(
					"The registry has " + counter.samples + " series, not " + registry.seriesCount());
		}
	}

	private static void assertSameBody(PrometheusOutputFormat format, PrometheusScrapeEndpoint bootEndpoint,
			LeanscrapeStarter leanscrape) {
		byte[] expected = bootEndpoint.scrape(format, null).getBody();
		WebEndpointResponse<Resource> response = leanscrape.endpoint().scrapeBody(format, null);
		PendingScrapeResource resource = (PendingScrapeResource) response.getBody();
		ScrapeResponse served = leanscrape.responder().respond(resource.pending(), null, null);
		try {
			PooledBody body = served.body();
			if (expected == null || body == null || !Arrays.equals(expected, body.toByteArray())) {
				throw new IllegalStateException("The endpoints disagree on the " + format + " body");
			}
		}
		finally {
			leanscrape.responder().finish(served, false);
		}
	}

	SyntheticRegistry registry() {
		return nonNull(this.registry);
	}

	PrometheusOutputFormat outputFormat() {
		return nonNull(this.outputFormat);
	}

	@Nullable Properties exporterProperties() {
		return this.exporterProperties;
	}

	PrometheusScrapeEndpoint bootEndpoint() {
		return nonNull(this.bootEndpoint);
	}

	LeanscrapeStarter leanscrape() {
		return nonNull(this.leanscrape);
	}

	static <T> T nonNull(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("Not set up");
		}
		return value;
	}

	/**
	 * Counts the lines of a text body that do not start with {@code #}.
	 */
	private static final class SampleLineCounter extends OutputStream {

		private boolean lineStart = true;

		private boolean comment;

		private long samples;

		@Override
		public void write(int b) {
			if (this.lineStart) {
				this.comment = (b == '#');
				this.lineStart = false;
			}
			if (b == '\n') {
				if (!this.comment) {
					this.samples++;
				}
				this.lineStart = true;
			}
		}

	}

}

package io.github.leanscrape.web;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.PoolLeaks;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many compressed scrapes with planned changes between them, each decoded by a client
 * that is not the starter's and compared byte for byte with Spring Boot's endpoint on the
 * same registry at the same moment: the unchanged segments the starter reuses from the
 * scrape before are those a fresh compression would have decoded to. The changes are
 * none, a cluster of series, series scattered evenly, every series, meters added and
 * removed; every step is scraped whole and through a name filter, each of which is a kind
 * of body of its own. Each client starts with nothing kept, and its scrapes copy
 * unchanged blocks and, in gzip, unchanged segments; in zstd, one frame by default, none.
 *
 * @author leanscrape
 */
abstract class AbstractChangingScrapesHttpTests {

	private static final String PATH = "/actuator/prometheus";

	private static final String FILTERED_NAME = "rich_bulk_total";

	private static final int ADDED_METERS = 300;

	@LocalServerPort
	int serverPort;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	PrometheusRegistry prometheusRegistry;

	@Autowired
	PrometheusConfig prometheusConfig;

	@Autowired
	ChunkPool pool;

	@Autowired
	Scraper scraper;

	@Autowired
	DirectRenderer renderer;

	private HttpScraper http;

	private PrometheusScrapeEndpoint bootEndpoint;

	private final List<Meter> added = new ArrayList<>();

	@BeforeEach
	void setUp() {
		this.http = new HttpScraper(this.serverPort);
		this.bootEndpoint = new PrometheusScrapeEndpoint(this.prometheusRegistry,
				this.prometheusConfig.prometheusProperties());
		// What a client reuses is then what its own scrapes kept, whatever ran before.
		this.scraper.forgetKept();
	}

	@AfterEach
	void removeAddedMetersAndCheckThePool() {
		for (Meter meter : this.added) {
			this.meterRegistry.remove(meter);
		}
		PoolLeaks.assertEveryChunkReturns(this.pool, this.scraper);
	}

	@ParameterizedTest
	@EnumSource
	void everyScrapeDecodesToSpringBootsBytes(Client client) {
		List<Counter> bulk = new ArrayList<>();
		for (Meter meter : this.meterRegistry.find("rich.bulk").meters()) {
			bulk.add((Counter) meter);
		}
		assertThat(bulk).as("bulk counters").hasSizeGreaterThan(5_000);
		long copied = this.renderer.copiedBlocks();
		long gzipReused = segmentsReused(ContentCoding.GZIP);
		long zstdReused = segmentsReused(ContentCoding.ZSTD);
		for (Change change : Change.values()) {
			change(change, bulk);
			for (PrometheusOutputFormat format : client.formats()) {
				for (String filter : new String[] { null, FILTERED_NAME }) {
					Set<String> names = (filter != null) ? Set.of(filter) : null;
					byte[] decoded = client.scrape(this, format, filter);
					byte[] expected = this.bootEndpoint.scrape(format, names).getBody();
					AbstractScrapeHttpTests.assertSameBody(decoded, expected, format);
				}
			}
		}
		if (client.formats().length > 1) {
			// Six kinds in turn, three of them large: more kinds than are kept (four),
			// and more than the memory limit holds. They decode; reuse is not promised.
			return;
		}
		// Reuse happened, not only decoding: the steps without change copy what the step
		// before kept.
		assertThat(this.renderer.copiedBlocks() - copied).as("blocks copied").isPositive();
		if (client.coding() == ContentCoding.GZIP) {
			assertThat(segmentsReused(ContentCoding.GZIP) - gzipReused).as("gzip segments reused").isPositive();
		}
		else {
			assertThat(segmentsReused(ContentCoding.ZSTD) - zstdReused).as("zstd segments reused, one frame").isZero();
		}
	}

	private long segmentsReused(ContentCoding coding) {
		for (BodyEncoder encoder : this.scraper.encoders()) {
			if (encoder.coding() == coding) {
				return encoder.segmentsReused();
			}
		}
		throw new IllegalStateException("No " + coding + " encoder");
	}

	private void change(Change change, List<Counter> bulk) {
		switch (change) {
			case CLUSTERED -> {
				// A run of series one after another in the body, a family's worth.
				for (Counter counter : bulk.subList(bulk.size() / 3, bulk.size() / 3 + 200)) {
					counter.increment();
				}
			}
			case SCATTERED -> {
				for (int i = 0; i < bulk.size(); i += 97) {
					bulk.get(i).increment();
				}
			}
			case ALL -> {
				for (Counter counter : bulk) {
					counter.increment();
				}
			}
			case ADDED -> {
				for (int i = 0; i < ADDED_METERS; i++) {
					this.added.add(Counter.builder("rich.bulk")
						.description("Bulk series")
						.tags("shard", "added", "index", Integer.toString(i))
						.register(this.meterRegistry));
				}
			}
			case REMOVED -> {
				for (Meter meter : this.added) {
					this.meterRegistry.remove(meter);
				}
				this.added.clear();
			}
			default -> {
			}
		}
	}

	private byte[] get(PrometheusOutputFormat format, @Nullable String filter, String coding) {
		HttpResponse<byte[]> response = this.http.get(pathAndQuery(filter), "Accept",
				format.getProducedMimeType().toString(), "Accept-Encoding", coding);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue(coding);
		return response.body();
	}

	private String url(@Nullable String filter) {
		return "http://127.0.0.1:" + this.serverPort + pathAndQuery(filter);
	}

	private static String pathAndQuery(@Nullable String filter) {
		return (filter != null) ? PATH + "?includedNames=" + URLEncoder.encode(filter, StandardCharsets.UTF_8) : PATH;
	}

	/**
	 * What changes before the scrapes of a step, in this order.
	 */
	enum Change {

		NONE, CLUSTERED, UNCHANGED_AFTER_CLUSTERED, SCATTERED, ALL, ADDED, UNCHANGED_AFTER_ADDED, REMOVED,
		UNCHANGED_AT_THE_END

	}

	/**
	 * Who asks for the scrape and decodes it.
	 */
	enum Client {

		/**
		 * The JDK's HTTP client asking for gzip, decoded by {@code GZIPInputStream}, in
		 * every format.
		 */
		JDK_GZIP {

			@Override
			byte[] scrape(AbstractChangingScrapesHttpTests test, PrometheusOutputFormat format,
					@Nullable String filter) {
				return HttpScraper.gunzip(test.get(format, filter, "gzip"));
			}

			@Override
			PrometheusOutputFormat[] formats() {
				return PrometheusOutputFormat.values();
			}

		},

		/**
		 * Asking for gzip, decoded by the {@code gzip} tool.
		 */
		GZIP_TOOL {

			@Override
			byte[] scrape(AbstractChangingScrapesHttpTests test, PrometheusOutputFormat format,
					@Nullable String filter) {
				return DecodingTools.gzip(test.get(format, filter, "gzip"));
			}

		},

		/**
		 * Asking for zstd, decoded by the {@code zstd} tool.
		 */
		ZSTD_TOOL {

			@Override
			byte[] scrape(AbstractChangingScrapesHttpTests test, PrometheusOutputFormat format,
					@Nullable String filter) {
				return DecodingTools.zstd(test.get(format, filter, "zstd"));
			}

			@Override
			ContentCoding coding() {
				return ContentCoding.ZSTD;
			}

		},

		/**
		 * {@code curl --compressed} asking for gzip only.
		 */
		CURL_GZIP {

			@Override
			byte[] scrape(AbstractChangingScrapesHttpTests test, PrometheusOutputFormat format,
					@Nullable String filter) {
				return DecodingTools.curlCompressed(test.url(filter), accept(format), "Accept-Encoding: gzip");
			}

		},

		/**
		 * {@code curl --compressed} with the codings it offers by itself (zstd first, as
		 * the starter prefers it at equal quality).
		 */
		CURL {

			@Override
			byte[] scrape(AbstractChangingScrapesHttpTests test, PrometheusOutputFormat format,
					@Nullable String filter) {
				return DecodingTools.curlCompressed(test.url(filter), accept(format));
			}

			@Override
			ContentCoding coding() {
				return ContentCoding.ZSTD;
			}

		};

		abstract byte[] scrape(AbstractChangingScrapesHttpTests test, PrometheusOutputFormat format,
				@Nullable String filter);

		/**
		 * Return the coding the starter answers this client in.
		 * @return the coding
		 */
		ContentCoding coding() {
			return ContentCoding.GZIP;
		}

		/**
		 * Return the formats this client scrapes in: OpenMetrics, what Prometheus asks
		 * for first, but where a client tests them all.
		 * @return the formats
		 */
		PrometheusOutputFormat[] formats() {
			return new PrometheusOutputFormat[] { PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100 };
		}

		private static String accept(PrometheusOutputFormat format) {
			return "Accept: " + format.getProducedMimeType();
		}

	}

}

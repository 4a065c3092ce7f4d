package io.github.leanscrape.web;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.PoolLeaks;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The endpoint over real HTTP, against Spring Boot's endpoint on the same registry. Each
 * stack runs the same tests, on the application's server or on the management server.
 */
abstract class AbstractScrapeHttpTests {

	static final String PATH = "/actuator/prometheus";

	static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

	static final String PROMETHEUS_2_ACCEPT = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

	@LocalServerPort
	int serverPort;

	@Autowired
	PrometheusRegistry prometheusRegistry;

	@Autowired
	PrometheusConfig prometheusConfig;

	@Autowired
	LeanscrapeScrapeEndpoint endpoint;

	@Autowired
	ChunkPool pool;

	@Autowired
	Scraper scraper;

	HttpScraper http;

	PrometheusScrapeEndpoint bootEndpoint;

	@BeforeEach
	void setUp() {
		this.http = new HttpScraper(scrapePort());
		this.bootEndpoint = new PrometheusScrapeEndpoint(this.prometheusRegistry,
				this.prometheusConfig.prometheusProperties());
	}

	@AfterEach
	void everyChunkIsBackInThePool() {
		PoolLeaks.assertEveryChunkReturns(this.pool, this.scraper);
	}

	/**
	 * Return the port of the server that serves actuator endpoints.
	 * @return the port to scrape
	 */
	int scrapePort() {
		return this.serverPort;
	}

	byte[] bootBody(PrometheusOutputFormat format, Set<String> includedNames) {
		return this.bootEndpoint.scrape(format, includedNames).getBody();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
			NONE                                          | CONTENT_TYPE_004
			*/*                                           | CONTENT_TYPE_004
			text/plain                                    | CONTENT_TYPE_004
			text/plain;version=0.0.4                      | CONTENT_TYPE_004
			application/openmetrics-text;version=1.0.0    | CONTENT_TYPE_OPENMETRICS_100
			PROMETHEUS_2                                  | CONTENT_TYPE_OPENMETRICS_100
			PROTOBUF                                      | CONTENT_TYPE_PROTOBUF
			PROTOBUF;q=0.1, text/plain;q=0.9              | CONTENT_TYPE_004
			PROTOBUF;q=0.5, application/openmetrics-text  | CONTENT_TYPE_OPENMETRICS_100
			text/plain;q=0, */*                           | CONTENT_TYPE_OPENMETRICS_100
			application/json, text/plain;q=0.1            | CONTENT_TYPE_004
			""")
	void negotiatesAndSendsSpringBootsBytes(String accept, PrometheusOutputFormat expected) {
		HttpRequest.Builder request = this.http.request(PATH).GET();
		if (accept != null) {
			request.header("Accept", accept.replace("PROMETHEUS_2", PROMETHEUS_2_ACCEPT).replace("PROTOBUF", PROTOBUF));
		}
		HttpResponse<byte[]> response = this.http.send(request);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValue(expected.getProducedMimeType().toString());
		assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
		assertSameBody(response.body(), bootBody(expected, null), expected);
		assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(response.body().length);
	}

	@ParameterizedTest
	@EnumSource(PrometheusOutputFormat.class)
	void gzipWhenAccepted(PrometheusOutputFormat format) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", format.getProducedMimeType().toString(),
				"Accept-Encoding", "gzip, deflate");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(response.headers().allValues("Vary")).anyMatch((vary) -> vary.contains("Accept-Encoding"));
		assertThat(response.headers().firstValue("Content-Type")).hasValue(format.getProducedMimeType().toString());
		byte[] plain = HttpScraper.gunzip(response.body());
		assertSameBody(plain, bootBody(format, null), format);
		assertThat(response.body().length).isLessThan(plain.length);
	}

	@ParameterizedTest
	@EnumSource(PrometheusOutputFormat.class)
	void zstdWhenAcceptedDecodedByTheReferenceTool(PrometheusOutputFormat format) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", format.getProducedMimeType().toString(),
				"Accept-Encoding", "zstd, gzip");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue("zstd");
		assertThat(response.headers().allValues("Vary")).anyMatch((vary) -> vary.contains("Accept-Encoding"));
		assertThat(response.headers().firstValue("Content-Type")).hasValue(format.getProducedMimeType().toString());
		byte[] plain = DecodingTools.zstd(response.body());
		assertSameBody(plain, bootBody(format, null), format);
		assertThat(response.body().length).isLessThan(plain.length);
	}

	@ParameterizedTest
	@CsvSource(delimiterString = "->", textBlock = """
			zstd                     -> zstd
			gzip, zstd               -> zstd
			zstd;q=0.5, gzip         -> gzip
			gzip;q=0.4, zstd;q=0.8   -> zstd
			zstd;q=0, gzip           -> gzip
			*                        -> gzip
			zstd;q=0, *              -> gzip
			ZSTD;Q=1                 -> zstd
			""")
	void codingByQuality(String acceptEncoding, String coding) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept-Encoding", acceptEncoding);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue(coding);
		byte[] plain = coding.equals("zstd") ? DecodingTools.zstd(response.body())
				: HttpScraper.gunzip(response.body());
		assertSameBody(plain, bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, null),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@ParameterizedTest
	@ValueSource(strings = { "identity", "gzip;q=0", "br", "deflate, *;q=0", "zstd;q=0" })
	void noGzipWhenNotAccepted(String acceptEncoding) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept-Encoding", acceptEncoding);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
		assertSameBody(response.body(), bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, null),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@Test
	void includedNamesFilter() {
		Set<String> names = new LinkedHashSet<>(List.of("rich_requests", "rich_gauge", "rich_timer_seconds"));
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			HttpResponse<byte[]> response = this.http.get(
					PATH + "?includedNames=rich_requests,rich_gauge,rich_timer_seconds", "Accept",
					format.getProducedMimeType().toString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertSameBody(response.body(), bootBody(format, names), format);
			assertThat(response.body().length).isLessThan(bootBody(format, null).length);
		}
	}

	/**
	 * Return whether the server takes {@code [} and {@code ]} unencoded in a query
	 * string. Tomcat refuses them (400) unless {@code server.tomcat.relaxed-query-chars}
	 * allows them; Prometheus and its Go and Java clients send them encoded.
	 * @return whether {@code ?name[]=a} reaches the application
	 */
	boolean unencodedBracketsInQuery() {
		return true;
	}

	@Test
	void unencodedNameParameter() {
		Set<String> names = new LinkedHashSet<>(List.of("rich_requests", "rich_gauge"));
		HttpResponse<byte[]> response = this.http.get(PATH + "?name[]=rich_requests&name[]=rich_gauge");
		if (!unencodedBracketsInQuery()) {
			assertThat(response.statusCode()).isEqualTo(400);
			return;
		}
		assertThat(response.statusCode()).isEqualTo(200);
		assertSameBody(response.body(), bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, names),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@ParameterizedTest
	@ValueSource(strings = { "name%5B%5D", "name%5b%5d" })
	void nameParameterMeansIncludedNames(String parameter) {
		Set<String> names = new LinkedHashSet<>(List.of("rich_requests", "rich_gauge", "rich_timer_seconds"));
		String query = "?" + parameter + "=rich_requests&" + parameter + "=rich_gauge&" + parameter
				+ "=rich_timer_seconds";
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			HttpResponse<byte[]> response = this.http.get(PATH + query, "Accept",
					format.getProducedMimeType().toString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type")).hasValue(format.getProducedMimeType().toString());
			assertSameBody(response.body(), bootBody(format, names), format);
			assertThat(response.body().length).isLessThan(bootBody(format, null).length);
		}
	}

	@ParameterizedTest
	@EnumSource(PrometheusOutputFormat.class)
	void nameParameterWithGzip(PrometheusOutputFormat format) {
		HttpResponse<byte[]> response = this.http.get(PATH + "?name%5B%5D=rich_summary_bytes&name%5B%5D=rich_gauge",
				"Accept", format.getProducedMimeType().toString(), "Accept-Encoding", "gzip");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertSameBody(HttpScraper.gunzip(response.body()),
				bootBody(format, new LinkedHashSet<>(List.of("rich_summary_bytes", "rich_gauge"))), format);
	}

	@Test
	void singleNameParameter() {
		HttpResponse<byte[]> response = this.http.get(PATH + "?name%5B%5D=rich_timer_histogram_seconds");
		assertThat(response.statusCode()).isEqualTo(200);
		byte[] expected = bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, Set.of("rich_timer_histogram_seconds"));
		assertThat(expected).isNotEmpty();
		assertSameBody(response.body(), expected, PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@Test
	void nameParameterAndIncludedNamesMeanTheirUnion() {
		Set<String> names = new LinkedHashSet<>(List.of("rich_requests", "rich_gauge", "rich_timer_seconds"));
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			HttpResponse<byte[]> response = this.http
				.get(PATH + "?includedNames=rich_requests,rich_gauge&foo=bar&name%5B%5D=rich_timer_seconds"
						+ "&name%5B%5D=rich_gauge", "Accept", format.getProducedMimeType().toString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertSameBody(response.body(), bootBody(format, names), format);
		}
	}

	@Test
	void unknownNameParameterIncludesNothing() {
		HttpResponse<byte[]> response = this.http.get(PATH + "?name%5B%5D=no_such_metric");
		assertThat(response.statusCode()).isEqualTo(200);
		assertSameBody(response.body(), bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, Set.of("no_such_metric")),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@Test
	void manyIncludedNames() {
		Set<String> names = new LinkedHashSet<>();
		StringBuilder query = new StringBuilder("?includedNames=rich_gauge");
		names.add("rich_gauge");
		for (int i = 0; i < 300; i++) {
			query.append(",n").append(i);
			names.add("n" + i);
		}
		HttpResponse<byte[]> response = this.http.get(PATH + query);
		assertThat(response.statusCode()).isEqualTo(200);
		assertSameBody(response.body(), bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, names),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@Test
	void tooLargeRequestLineIsAClientError() {
		StringBuilder query = new StringBuilder("?includedNames=rich_gauge");
		for (int i = 0; i < 10_000; i++) {
			query.append(",name").append(i);
		}
		HttpResponse<byte[]> response = this.http.get(PATH + query);
		assertThat(response.statusCode()).isBetween(400, 499);
	}

	@Test
	void emptyIncludedNames() {
		HttpResponse<byte[]> response = this.http.get(PATH + "?includedNames=");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(new String(response.body(), StandardCharsets.UTF_8))
			.isEqualTo(new String(bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, Set.of()), StandardCharsets.UTF_8));
	}

	@Test
	void unknownParametersAreIgnored() {
		HttpResponse<byte[]> response = this.http.get(PATH + "?foo=bar&debug=text");
		assertThat(response.statusCode()).isEqualTo(200);
		assertSameBody(response.body(), bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, null),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "text/html", "image/png;q=1, text/plain;q=0" })
	void notAcceptable(String accept) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", accept);
		assertThat(response.statusCode()).isEqualTo(406);
	}

	@ParameterizedTest
	@ValueSource(strings = { "text/plain;q=abc", "garbage", ";;;", "text/", "*/*;q=", "a/b/c" })
	void malformedAcceptIsNeverAServerError(String accept) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", accept);
		assertThat(response.statusCode()).isNotEqualTo(500).isBetween(200, 499);
	}

	@Test
	void hugeAcceptHeaderIsNeverAServerError() {
		StringBuilder accept = new StringBuilder();
		for (int i = 0; i < 700; i++) {
			accept.append("application/x-").append(i).append(";q=0.").append(i % 10).append(',');
		}
		accept.append("text/plain;q=0.01");
		assertThat(accept.length()).isGreaterThan(10_000);
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", accept.toString());
		assertThat(response.statusCode()).isNotEqualTo(500).isBetween(200, 499);
	}

	@Test
	void head() {
		HttpResponse<byte[]> response = this.http
			.send(this.http.request(PATH).method("HEAD", HttpRequest.BodyPublishers.noBody()));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "bytes=0-9", "bytes=10-19, 30-39", "bytes=-5" })
	void rangeRequestGetsTheWholeBodyAsFromSpringBoot(String range) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Range", range);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Range")).isEmpty();
		assertSameBody(response.body(), bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, null),
				PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@ParameterizedTest
	@ValueSource(strings = { "POST", "PUT", "DELETE", "PATCH" })
	void otherMethodsAreNotAllowed(String method) {
		HttpResponse<byte[]> response = this.http
			.send(this.http.request(PATH).method(method, HttpRequest.BodyPublishers.ofString("x")));
		assertThat(response.statusCode()).isEqualTo(405);
	}

	@Test
	void clientsThatHangUpMidBodyLeaveNoChunkInUse() {
		for (int i = 0; i < 50; i++) {
			this.http.getAndHangUp(PATH, 1000);
		}
		// The @AfterEach check waits for every chunk to come back.
	}

	@Test
	void steadyStateScrapesAllocateNoNewChunks() {
		ChunkPool pool = this.pool;
		for (int i = 0; i < 3; i++) {
			this.http.get(PATH);
			this.http.get(PATH, "Accept-Encoding", "gzip");
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.chunksInUse() == this.scraper.keptChunks());
		long allocated = pool.allocatedChunks();
		for (int i = 0; i < 10; i++) {
			this.http.get(PATH);
			this.http.get(PATH, "Accept-Encoding", "gzip");
			await().atMost(Duration.ofSeconds(10)).until(() -> pool.chunksInUse() == this.scraper.keptChunks());
		}
		assertThat(pool.allocatedChunks()).isEqualTo(allocated);
		assertThat(pool.retainedBytes()).isLessThanOrEqualTo(pool.retainLimit());
	}

	@Test
	void retainedMemoryFollowsTheOutput() {
		ChunkPool pool = this.pool;
		this.http.get(PATH);
		await().atMost(Duration.ofSeconds(10)).until(() -> pool.chunksInUse() == this.scraper.keptChunks());
		long afterFullScrape = pool.retainLimit();
		assertThat(afterFullScrape).isGreaterThan(0);
		assertThat(pool.retainedBytes()).isLessThanOrEqualTo(afterFullScrape);
	}

	@Test
	void concurrentScrapesAllGetTheSameBytes() throws Exception {
		byte[] expected = bootBody(PrometheusOutputFormat.CONTENT_TYPE_004, null);
		List<Thread> threads = new ArrayList<>();
		List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
		for (int t = 0; t < 8; t++) {
			Thread thread = new Thread(() -> {
				try {
					for (int i = 0; i < 5; i++) {
						HttpResponse<byte[]> response = this.http.get(PATH, "Accept-Encoding", "gzip");
						assertThat(HttpScraper.gunzip(response.body())).isEqualTo(expected);
					}
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			});
			threads.add(thread);
			thread.start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(failures).isEmpty();
	}

	static void assertSameBody(byte[] actual, byte[] expected, PrometheusOutputFormat format) {
		if (format != PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
			assertThat(new String(actual, StandardCharsets.UTF_8))
				.isEqualTo(new String(expected, StandardCharsets.UTF_8));
		}
		assertThat(actual).isEqualTo(expected);
	}

}

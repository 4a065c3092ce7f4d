package io.github.leanscrape.web;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.PoolLeaks;
import io.github.leanscrape.support.ScrapeGate;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deadlines, shared renderings, failures and the starter's own metrics over real HTTP.
 * The application allows one rendering at a time; a gauge can hold a rendering.
 */
abstract class AbstractScrapeUnderPressureHttpTests {

	static final String PATH = "/actuator/prometheus";

	static final String OPENMETRICS = "application/openmetrics-text;version=1.0.0";

	@LocalServerPort
	int port;

	@Autowired
	ScrapeGate gate;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	LeanscrapeScrapeEndpoint endpoint;

	@Autowired
	ChunkPool pool;

	@Autowired
	Scraper scraper;

	HttpScraper http;

	@BeforeEach
	void setUp() {
		this.http = new HttpScraper(this.port);
	}

	@AfterEach
	void tearDown() {
		this.gate.open();
		this.gate.failing(false);
		PoolLeaks.assertEveryChunkReturns(this.pool, this.scraper);
	}

	@Test
	void scrapeThatMissesItsDeadlineGets503WithAClearBody() throws Exception {
		double rejectedBefore = counted("rejected");
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> held = CompletableFuture.supplyAsync(() -> this.http.get(PATH));
		assertThat(this.gate.awaitRendering()).isTrue();
		long start = System.nanoTime();
		HttpResponse<byte[]> rejected = this.http.get(PATH, "Accept", OPENMETRICS,
				"X-Prometheus-Scrape-Timeout-Seconds", "0.3");
		assertThat(rejected.statusCode()).isEqualTo(503);
		assertThat(rejected.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/plain"));
		assertThat(new String(rejected.body(), StandardCharsets.UTF_8))
			.startsWith("Scrape not served within its timeout");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		this.gate.open();
		assertThat(held.get().statusCode()).isEqualTo(200);
		awaitCounted("rejected", rejectedBefore + 1);
	}

	@Test
	void overlappingScrapesShareOneRendering() throws Exception {
		this.gate.close();
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(() -> this.http.get(PATH));
		assertThat(this.gate.awaitRendering()).isTrue();
		double coalescedBefore = counted("coalesced");
		CompletableFuture<HttpResponse<byte[]>> second = CompletableFuture.supplyAsync(() -> this.http.get(PATH));
		CompletableFuture<HttpResponse<byte[]>> third = CompletableFuture
			.supplyAsync(() -> this.http.get(PATH, "Accept-Encoding", "gzip"));
		// Open the gate only once both wait for the held rendering: a slow client that
		// arrived later would start a rendering of its own.
		await().atMost(Duration.ofSeconds(20)).until(() -> this.scraper.scrapesWaiting() == 2);
		this.gate.open();
		byte[] body = first.get().body();
		assertThat(second.get().body()).isEqualTo(body);
		assertThat(HttpScraper.gunzip(third.get().body())).isEqualTo(body);
		awaitCounted("coalesced", coalescedBefore + 2);
		// Only this test overlaps scrapes that all complete, and every earlier body came
		// back to the pool (after each test): no other scrape is counted as coalesced
		// now.
		assertThat(counted("coalesced")).isEqualTo(coalescedBefore + 2);
	}

	@Test
	void failingRenderingGives500AndTheNextScrapeWorks() {
		double errorsBefore = counted("error");
		this.gate.failing(true);
		HttpResponse<byte[]> failed = this.http.get(PATH);
		assertThat(failed.statusCode()).isEqualTo(500);
		String message = new String(failed.body(), StandardCharsets.UTF_8);
		assertThat(message).isEqualTo("Scrape failed: IllegalStateException\n");
		this.gate.failing(false);
		assertThat(this.http.get(PATH).statusCode()).isEqualTo(200);
		awaitCounted("error", errorsBefore + 1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "-1", "0", "abc", "NaN", "1e300", "Infinity", "", "10", "0.000001" })
	void anyTimeoutHeaderGetsAnAnswer(String timeout) {
		HttpResponse<byte[]> response = this.http.get(PATH, "X-Prometheus-Scrape-Timeout-Seconds", timeout);
		assertThat(response.statusCode()).isIn(200, 503);
	}

	@ParameterizedTest
	@ValueSource(strings = { "text/plain;version=0.0.4;escaping=underscores", "text/plain;escaping=allow-utf-8",
			"application/openmetrics-text;version=1.0.0;escaping=bogus",
			"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.5" })
	void escapingParametersAreIgnoredAsSpringBootIgnoresThem(String accept) {
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", accept);
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void ownMetricsCountEveryScrapeOnce() {
		double before = counted("ok");
		double bodiesBefore = this.meterRegistry.get("leanscrape.scrape.body").summary().count();
		for (int i = 0; i < 5; i++) {
			assertThat(this.http.get(PATH, "Accept-Encoding", "gzip").statusCode()).isEqualTo(200);
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> counted("ok") - before == 5);
		assertThat(this.meterRegistry.get("leanscrape.scrape.body").summary().count() - bodiesBefore).isEqualTo(5);
		assertThat(this.meterRegistry.get("leanscrape.scrape.sent").summary().max())
			.isLessThan(this.meterRegistry.get("leanscrape.scrape.body").summary().max());
		assertThat(this.meterRegistry.get("leanscrape.scrape.duration").tag("format", "text").timer().count())
			.isGreaterThanOrEqualTo(5);
		// Between scrapes, the chunks are free in the pool or kept with the last body to
		// reuse its unchanged compressed segments (when the memory limit leaves room).
		assertThat(this.meterRegistry.get("leanscrape.buffer.retained").gauge().value()
				+ this.meterRegistry.get("leanscrape.compression.kept").gauge().value())
			.isPositive();
		// The scrapes held chunks while they rendered; what bodies hold now is no more.
		assertThat(this.meterRegistry.get("leanscrape.buffer.in.use.peak").gauge().value()).isPositive()
			.isGreaterThanOrEqualTo(this.meterRegistry.get("leanscrape.buffer.in.use").gauge().value());
		assertThat(this.meterRegistry.get("leanscrape.compression.segments")
			.tags("coding", "gzip", "outcome", "compressed")
			.functionCounter()
			.count()).isPositive();
		assertThat(this.meterRegistry.get("leanscrape.renders.in.flight").gauge().value()).isZero();
		assertThat(this.meterRegistry.get("leanscrape.fallbacks").tag("scope", "scrape").functionCounter()).isNotNull();
	}

	@Test
	void clientsThatHangUpAreCountedAndLeaveNoChunkInUse() {
		// 250 on each stack, each hanging up while its body is written: a thousand took
		// 72 s on WebFlux and 30 s on Spring MVC (a whole body rendered for each).
		for (int i = 0; i < 250; i++) {
			this.http.getAndHangUp(PATH, 100);
		}
		// The @AfterEach check waits for every chunk to come back.
	}

	/**
	 * Wait until an outcome reaches a count. A scrape is counted once its response has
	 * been written, which can be just after the client has read the whole body.
	 */
	private void awaitCounted(String outcome, double expected) {
		await().atMost(Duration.ofSeconds(10)).until(() -> counted(outcome) >= expected);
	}

	private double counted(String outcome) {
		double total = 0;
		for (String format : new String[] { "text", "openmetrics", "protobuf" }) {
			total += this.meterRegistry.get("leanscrape.scrapes")
				.tag("format", format)
				.tag("outcome", outcome)
				.counter()
				.count();
		}
		return total;
	}

}

package io.github.leanscrape.web;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.leanscrape.support.PinnedVirtualThreads;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scrapes under pressure again, with {@code spring.threads.virtual.enabled=true}
 * (Java 21 and later, which each subclass requires; the build runs them on its newer
 * JDK): besides every test of the platform-thread runs, scrapes that wait for a held
 * rendering (shared, or admitted one at a time) leave the server's carriers free, so that
 * other requests are answered while they wait, and no virtual thread stays pinned to its
 * carrier in the starter's code (Java Flight Recorder's {@code jdk.VirtualThreadPinned},
 * over 20 ms).
 */
abstract class AbstractScrapeUnderPressureOnVirtualThreadsHttpTests extends AbstractScrapeUnderPressureHttpTests {

	private static final int WAITING_SCRAPES = 64;

	private static final Duration PINNED_THRESHOLD = Duration.ofMillis(20);

	private static PinnedVirtualThreads pinned;

	@BeforeAll
	static void recordPinnedVirtualThreads() {
		pinned = new PinnedVirtualThreads(PINNED_THRESHOLD);
	}

	@AfterAll
	static void noVirtualThreadWasPinnedInTheStarter() {
		try {
			assertThat(pinned.pinned()).isEmpty();
		}
		finally {
			pinned.close();
		}
	}

	@Test
	void scrapesWaitingForAHeldRenderingLeaveTheServerFree() throws Exception {
		this.gate.close();
		List<CompletableFuture<HttpResponse<byte[]>>> scrapes = new ArrayList<>();
		scrapes.add(CompletableFuture.supplyAsync(() -> this.http.get(PATH)));
		assertThat(this.gate.awaitRendering()).isTrue();
		for (int i = 1; i < WAITING_SCRAPES; i++) {
			// Half of them share the held rendering; the others ask for another format
			// and
			// wait for admission (one rendering at a time).
			String accept = (i % 2 == 0) ? "text/plain;version=0.0.4" : OPENMETRICS;
			// A long timeout: on two busy cores, the default ten seconds could pass.
			scrapes.add(CompletableFuture
				.supplyAsync(() -> this.http.get(PATH, "Accept", accept, "X-Prometheus-Scrape-Timeout-Seconds", "60")));
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> this.scraper.scrapesWaiting() >= WAITING_SCRAPES / 4);
		long started = System.nanoTime();
		HttpResponse<byte[]> health = this.http.get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		// Far less than the rendering is held for (the gate's 30 s): not behind the
		// scrapes.
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThat(scrapes).noneMatch(CompletableFuture::isDone);
		this.gate.open();
		for (CompletableFuture<HttpResponse<byte[]>> scrape : scrapes) {
			assertThat(scrape.get().statusCode()).isEqualTo(200);
		}
	}

	@Test
	void renderingRunsOnAVirtualThread() {
		assertThat(this.http.get(PATH).statusCode()).isEqualTo(200);
		assertThat(this.gate.renderingThread()).startsWith("VirtualThread");
	}

}

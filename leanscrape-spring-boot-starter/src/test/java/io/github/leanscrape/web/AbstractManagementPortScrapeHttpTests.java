package io.github.leanscrape.web;

import java.net.http.HttpResponse;

import io.github.leanscrape.support.BootWiringTests;
import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalManagementPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scrape tests against the management server of {@code management.server.port}, and
 * the check that the application's own server does not serve the endpoint. They scrape
 * 5,000 bulk series, as the cells of other versions do: enough for many chunks and
 * segments, and the tests of the application's own server scrape more.
 */
@Tag(BootWiringTests.TAG)
abstract class AbstractManagementPortScrapeHttpTests extends AbstractScrapeHttpTests {

	@LocalManagementPort
	int managementPort;

	@Override
	int scrapePort() {
		return this.managementPort;
	}

	@Test
	void applicationServerDoesNotServeTheEndpoint() {
		assertThat(this.managementPort).isNotEqualTo(this.serverPort);
		HttpResponse<byte[]> response = new HttpScraper(this.serverPort).get(PATH);
		assertThat(response.statusCode()).isEqualTo(404);
	}

}

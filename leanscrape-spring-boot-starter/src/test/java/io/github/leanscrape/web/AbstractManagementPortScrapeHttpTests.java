package io.github.leanscrape.web;

import java.net.http.HttpResponse;

import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalManagementPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scrape tests against the management server of {@code management.server.port}, and
 * the check that the application's own server does not serve the endpoint. Tagged
 * {@value #TAG}: the cells of another Micrometer and of the newer JDK leave them out,
 * which change nothing in how Spring Boot wires a management server; the cell of another
 * Spring Boot runs them.
 */
@Tag(AbstractManagementPortScrapeHttpTests.TAG)
abstract class AbstractManagementPortScrapeHttpTests extends AbstractScrapeHttpTests {

	/**
	 * The JUnit tag of the tests on a management server of its own.
	 */
	static final String TAG = "management-port";

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

package io.github.leanscrape.web;

import io.github.leanscrape.support.ScrapeTestApplication;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The endpoint on Spring WebFlux, served by Reactor Netty.
 */
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus",
				"rich.bulk-series=${scrape-tests.bulk-series:20000}" })
class WebFluxScrapeHttpTests extends AbstractScrapeHttpTests {

}

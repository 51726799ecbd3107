"""Tests of the HTTP layer: routes, hostile inputs, limits, ops, signing, the page, the contract, serving."""

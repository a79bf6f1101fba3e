/** The auth module's calls: filled in as its routes move onto the endpoint table. */
export {};

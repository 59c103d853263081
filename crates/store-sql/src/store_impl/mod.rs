//! The `Store` trait on each engine. Its calls go to the areas' shared bodies
//! (`crate::accounts`, `crate::users`, `crate::purge`); SQLite keeps its session cache
//! in front of them. Apart from the engines' own modules, so those modules never import
//! the areas that import them.

mod postgres;
mod sqlite;
